// dependency-cruiser: the design's arrows between folders (docs/architecture.md), checked on every import,
// type-only imports included. `npm run lint` runs it over every folder.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'protocol-imports-nothing-of-ours',
      comment: 'protocol/ is the contract both sides import: it may use npm packages (zod) and itself, nothing else (not even node: modules, it runs in the browser).',
      severity: 'error',
      from: { path: '^protocol/' },
      to: { pathNot: ['^protocol/', '^node_modules/'] },
    },
    {
      name: 'examples-stand-alone',
      comment: 'examples/ are scripts a customer copies out of the repository: npm packages and node: modules only, nothing of ours.',
      severity: 'error',
      from: { path: '^examples/' },
      to: { pathNot: ['^examples/', '^node_modules/'], dependencyTypesNot: ['core'] },
    },
    {
      name: 'streams-not-to-machines-or-src',
      comment: 'streams/ (RxJS over STOMP) sits under the machines and the React app; it never reaches up to them.',
      severity: 'error',
      from: { path: '^streams/' },
      to: { path: '^(machines|src)/' },
    },
    {
      name: 'machines-not-to-src',
      comment: 'machines/ (XState) run without React: the app uses them, not the other way round.',
      severity: 'error',
      from: { path: '^machines/' },
      to: { path: '^src/' },
    },
    {
      name: 'browser-not-to-server',
      comment: 'The browser folders never import the server: they share only protocol/.',
      severity: 'error',
      from: { path: '^(src|machines|streams|protocol)/' },
      to: { path: '^server/' },
    },
    {
      name: 'no-circular',
      comment: 'No import cycles anywhere, tests and benchmarks included: shared types go to a file both sides import.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    // Type-only imports are arrows too (a type from server/ in protocol/ is still a wrong-way dependency).
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
