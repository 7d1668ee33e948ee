-- Raised by every password change or reset; a token carries the version it was issued at (claim `cv`)
-- and is refused once the user's is higher (AUTH_TOKEN_REVOKED).
alter table users add column credentials_version integer not null default 0;
