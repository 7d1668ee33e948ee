-- Transactions novated after a settlement (settlement.repository.ts novatedAfterSettlement), read by every
-- financial report refresh and settlement run: the superseded ones and each child's parent found by index
-- instead of a scan of every transaction's jsonb. Partial: only the few rows that match are indexed.
create index transactions_superseded on transactions (transaction_id) where data->>'status' = 'superseded';
create index transactions_parent on transactions ((data->>'parentTransactionId')) where data->>'parentTransactionId' is not null;
