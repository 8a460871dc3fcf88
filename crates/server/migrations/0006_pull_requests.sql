-- Pull requests as workers report them, their CI check runs, and the releases merges make.
CREATE TABLE pull_requests (
    id            TEXT PRIMARY KEY,
    team_id       TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    workspace_id  TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    task_id       TEXT REFERENCES tasks(id) ON DELETE SET NULL,
    mission_id    TEXT REFERENCES missions(id) ON DELETE SET NULL,
    number        INTEGER NOT NULL,
    url           TEXT,
    base_branch   TEXT,
    head_branch   TEXT,
    head_sha      TEXT,
    -- The changed files as reported: a JSON array, or NULL when the listing was missing or
    -- malformed (files_state says which).
    files         TEXT,
    files_state   TEXT NOT NULL DEFAULT 'missing' CHECK (files_state IN ('listed', 'missing', 'malformed')),
    state         TEXT NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'merged', 'closed')),
    merged_at     TEXT,
    merged_by     TEXT,
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL,
    UNIQUE (workspace_id, number)
);

CREATE INDEX pull_requests_by_mission ON pull_requests (mission_id, number);

CREATE TABLE check_runs (
    id          TEXT PRIMARY KEY,
    pr_id       TEXT NOT NULL REFERENCES pull_requests(id) ON DELETE CASCADE,
    head_sha    TEXT NOT NULL,
    name        TEXT NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('queued', 'in_progress', 'completed')),
    conclusion  TEXT CHECK (conclusion IN ('success', 'failure', 'neutral', 'cancelled', 'timed_out', 'skipped', 'action_required')),
    created_at  TEXT NOT NULL
);

CREATE INDEX check_runs_by_pr ON check_runs (pr_id, head_sha, created_at);

CREATE TABLE release_events (
    id            TEXT PRIMARY KEY,
    team_id       TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    workspace_id  TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    pr_id         TEXT NOT NULL REFERENCES pull_requests(id) ON DELETE CASCADE,
    mission_id    TEXT REFERENCES missions(id) ON DELETE SET NULL,
    merge_method  TEXT NOT NULL DEFAULT 'squash',
    merged_by     TEXT NOT NULL,
    created_at    TEXT NOT NULL
);

CREATE TRIGGER pull_requests_gen_i AFTER INSERT ON pull_requests BEGIN UPDATE generation SET value = value + 1; END;
CREATE TRIGGER pull_requests_gen_u AFTER UPDATE ON pull_requests BEGIN UPDATE generation SET value = value + 1; END;
CREATE TRIGGER check_runs_gen_i AFTER INSERT ON check_runs BEGIN UPDATE generation SET value = value + 1; END;
