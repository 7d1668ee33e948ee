-- The orders and order-events read models keep each row's JSON as written (json), not parsed into jsonb:
-- nothing queries inside it (the columns beside it carry what the history filters use), and PGlite writes
-- a json row in about half the time of a jsonb one (docs/trading.md, "Read models"). Transactions keep
-- jsonb: settlement and the workflows query inside them.
alter table orders alter column data type json using data::json;
alter table order_events alter column data type json using data::json;
