import { FormattedMessage } from 'react-intl';
import type { ClientAccount } from '../../../protocol/account.ts';
import { DataTable, type DataTableColumn } from '../../components/DataTable.tsx';

/** SPEC §3 Client (general account): name, code, ACER code, and whether it may trade. */
export function ClientAccountsTable({ clients, label, loading = false }: { clients: readonly ClientAccount[]; label: string; loading?: boolean }) {
  const columns: DataTableColumn<ClientAccount>[] = [
    { id: 'name', header: <FormattedMessage id="account.clients.name" />, sortValue: (client) => client.name, cell: (client) => <strong>{client.name}</strong> },
    { id: 'code', header: <FormattedMessage id="account.clients.code" />, sortValue: (client) => client.code, cell: (client) => <span className="mono">{client.code}</span> },
    { id: 'acerCode', header: <FormattedMessage id="account.clients.acerCode" />, sortValue: (client) => client.acerCode, cell: (client) => <span className="mono">{client.acerCode}</span> },
    {
      id: 'status',
      header: <FormattedMessage id="account.clients.status" />,
      sortValue: (client) => (client.active ? 0 : 1),
      cell: (client) => (
        <span className={client.active ? 'badge account-active' : 'badge badge-neutral'}>
          <FormattedMessage id={client.active ? 'account.clients.active' : 'account.clients.inactive'} />
        </span>
      ),
    },
  ];
  return (
    <DataTable
      label={label}
      columns={columns}
      rows={clients}
      rowKey={(client) => client.code}
      loading={loading}
      initialSort={{ columnId: 'code', direction: 'asc' }}
      hideFooter={clients.length <= 10}
      emptyMessage={<FormattedMessage id="account.clients.empty" />}
    />
  );
}
