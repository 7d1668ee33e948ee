-- Names of markets, rings and assets in every language of the app: {"ro": ..., "en": ...}.
-- Rows made before this migration get their one name in both languages (the demo loader gives
-- Romanian names to a new database).
alter table markets add column names jsonb;
update markets set names = jsonb_build_object('ro', name, 'en', name);
alter table markets alter column names set not null;

alter table rings add column names jsonb;
update rings set names = jsonb_build_object('ro', name, 'en', name);
alter table rings alter column names set not null;

alter table assets add column names jsonb;
update assets set names = jsonb_build_object('ro', name, 'en', name);
alter table assets alter column names set not null;
