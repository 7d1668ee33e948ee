-- Settlement records kept as documents (issue 14): a batch row names the transaction's parties, so a
-- client's batches list without the transactions read model; a transaction report keeps the
-- transactions it reports, as they were when it was made.
alter table clearing_batches add column buyer text not null default '';
alter table clearing_batches add column seller text not null default '';
create index clearing_batches_buyer on clearing_batches(buyer);
create index clearing_batches_seller on clearing_batches(seller);
alter table transaction_reports add column transactions jsonb not null default '[]'::jsonb;
