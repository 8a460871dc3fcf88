-- Every server on the database keeps the accounts of keys used lately for a few seconds.
-- An account deleted, or its key, level or team changed, by any server or by hand, tells
-- them all to read keys afresh (src/db/postgres/notices.rs).
CREATE FUNCTION accounts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('buildd_keys', '');
    RETURN NULL;
END
$$;

CREATE TRIGGER accounts_changed
    AFTER DELETE OR UPDATE OF api_key_hash, level, team_id ON accounts
    FOR EACH STATEMENT EXECUTE FUNCTION accounts_changed();
