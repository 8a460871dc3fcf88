-- A PR's title as its worker opened it (`POST /api/github/pr`); PRs reported on completion
-- keep none and show their task's title.
ALTER TABLE pull_requests ADD COLUMN title TEXT;
