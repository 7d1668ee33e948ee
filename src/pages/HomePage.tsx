import { FormattedMessage, useIntl } from 'react-intl';
import { useSession } from '../auth/session.ts';
import { enumLabelKey } from '../i18n/enum-labels.ts';

/** Home: who is signed in (user, broker, agency, terminal, roles). The route loader fetched the user. */
export function HomePage() {
  const intl = useIntl();
  const user = useSession()?.user;
  if (!user) {
    return (
      <p aria-busy="true">
        <FormattedMessage id="app.loading" />
      </p>
    );
  }
  const notAssigned = intl.formatMessage({ id: 'home.notAssigned' });
  const rows: Array<[string, string]> = [
    [intl.formatMessage({ id: 'home.user' }), user.username],
    [intl.formatMessage({ id: 'home.broker' }), user.broker?.name ?? notAssigned],
    [intl.formatMessage({ id: 'home.agency' }), user.agency?.name ?? notAssigned],
    [intl.formatMessage({ id: 'home.terminal' }), user.terminal?.name ?? notAssigned],
    [
      intl.formatMessage({ id: 'home.roles' }),
      intl.formatList(user.roles.map((role) => intl.formatMessage({ id: enumLabelKey('role', role) }))),
    ],
  ];
  return (
    <section className="card">
      <h1>
        <FormattedMessage id="home.welcome" values={{ name: user.name }} />
      </h1>
      <h2>
        <FormattedMessage id="home.profile" />
      </h2>
      <dl className="profile">
        {rows.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
