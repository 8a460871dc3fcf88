-- Where a CI check run's log is, so a person can open it from the PR.
ALTER TABLE check_runs ADD COLUMN details_url TEXT;
