-- Teams, API keys (stored only as SHA-256 hashes), workspaces, missions, their check-in
-- schedules, tasks and the workers that ran them. JSON columns hold TEXT.

CREATE TABLE teams (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    created_at  TEXT NOT NULL
);

CREATE TABLE accounts (
    id              TEXT PRIMARY KEY,
    team_id         TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    name            TEXT NOT NULL,
    level           TEXT NOT NULL CHECK (level IN ('trigger', 'worker', 'admin')),
    api_key_hash    TEXT NOT NULL UNIQUE,
    api_key_prefix  TEXT NOT NULL,
    created_at      TEXT NOT NULL
);

CREATE TABLE workspaces (
    id                     TEXT PRIMARY KEY,
    team_id                TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    name                   TEXT NOT NULL,
    repo                   TEXT,
    local_path             TEXT,
    access_mode            TEXT NOT NULL DEFAULT 'restricted'
                               CHECK (access_mode IN ('open', 'restricted')),
    data_class             TEXT NOT NULL DEFAULT 'standard'
                               CHECK (data_class IN ('standard', 'sensitive')),
    max_concurrent_tasks   INTEGER NOT NULL DEFAULT 3,
    git_config             TEXT NOT NULL DEFAULT '{}',
    config_status          TEXT NOT NULL DEFAULT 'unconfigured',
    last_migration_number  INTEGER NOT NULL DEFAULT 0,
    created_at             TEXT NOT NULL,
    updated_at             TEXT NOT NULL,
    UNIQUE (team_id, name)
);

CREATE TABLE schedules (
    id                    TEXT PRIMARY KEY,
    team_id               TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    workspace_id          TEXT REFERENCES workspaces(id) ON DELETE SET NULL,
    name                  TEXT NOT NULL,
    cron_expression       TEXT,
    timezone              TEXT NOT NULL DEFAULT 'UTC',
    task_template         TEXT NOT NULL DEFAULT '{}',
    enabled               INTEGER NOT NULL DEFAULT 1,
    one_shot              INTEGER NOT NULL DEFAULT 0,
    next_run_at           TEXT,
    last_run_at           TEXT,
    last_task_id          TEXT,
    total_runs            INTEGER NOT NULL DEFAULT 0,
    consecutive_failures  INTEGER NOT NULL DEFAULT 0,
    last_error            TEXT,
    last_deferral_reason  TEXT,
    last_deferred_at      TEXT,
    created_at            TEXT NOT NULL,
    updated_at            TEXT NOT NULL
);

CREATE TABLE missions (
    id                          TEXT PRIMARY KEY,
    team_id                     TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    workspace_id                TEXT REFERENCES workspaces(id) ON DELETE SET NULL,
    title                       TEXT NOT NULL,
    description                 TEXT,
    status                      TEXT NOT NULL DEFAULT 'active'
                                    CHECK (status IN ('active', 'paused', 'completed', 'archived', 'budget_exhausted')),
    cost_budget_usd             TEXT,
    priority                    INTEGER NOT NULL DEFAULT 0,
    default_output_requirement  TEXT,
    default_backend             TEXT,
    schedule_id                 TEXT REFERENCES schedules(id) ON DELETE SET NULL,
    parent_mission_id           TEXT REFERENCES missions(id) ON DELETE SET NULL,
    depends_on_mission_id       TEXT REFERENCES missions(id) ON DELETE SET NULL,
    gate_condition              TEXT NOT NULL DEFAULT 'merged',
    dependency_met_at           TEXT,
    max_concurrent_tasks        INTEGER,
    last_task_started_at        TEXT,
    working_branch              TEXT,
    requires_review             INTEGER NOT NULL DEFAULT 0,
    merge_policy                TEXT,
    orchestration_mode          TEXT NOT NULL DEFAULT 'auto'
                                    CHECK (orchestration_mode IN ('auto', 'manual')),
    is_held                     INTEGER NOT NULL DEFAULT 0,
    start_at                    TEXT,
    goal_criteria               TEXT,
    created_at                  TEXT NOT NULL,
    updated_at                  TEXT NOT NULL
);

CREATE INDEX missions_by_team ON missions (team_id, workspace_id, status);

CREATE TABLE tasks (
    id                     TEXT PRIMARY KEY,
    team_id                TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    workspace_id           TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    mission_id             TEXT REFERENCES missions(id) ON DELETE SET NULL,
    parent_task_id         TEXT REFERENCES tasks(id) ON DELETE SET NULL,
    title                  TEXT NOT NULL,
    description            TEXT,
    context                TEXT NOT NULL DEFAULT '{}',
    status                 TEXT NOT NULL DEFAULT 'pending'
                               CHECK (status IN ('pending', 'assigned', 'in_progress', 'review', 'completed', 'failed', 'cancelled')),
    priority               INTEGER NOT NULL DEFAULT 0,
    mode                   TEXT NOT NULL DEFAULT 'execution' CHECK (mode IN ('execution', 'planning')),
    task_class             TEXT NOT NULL DEFAULT 'work' CHECK (task_class IN ('work', 'attempt', 'bookkeeping')),
    runner_preference      TEXT NOT NULL DEFAULT 'any',
    required_capabilities  TEXT NOT NULL DEFAULT '[]',
    claimed_by             TEXT,
    claimed_at             TEXT,
    expires_at             TEXT,
    created_by_account_id  TEXT,
    created_by_worker_id   TEXT,
    creation_source        TEXT,
    schedule_id            TEXT,
    category               TEXT,
    project                TEXT,
    output_requirement     TEXT NOT NULL DEFAULT 'auto',
    output_schema          TEXT,
    role_slug              TEXT,
    depends_on             TEXT NOT NULL DEFAULT '[]',
    result                 TEXT,
    kind                   TEXT,
    complexity             TEXT,
    backend                TEXT NOT NULL DEFAULT 'claude',
    requires_review        INTEGER NOT NULL DEFAULT 0,
    start_at               TEXT,
    created_at             TEXT NOT NULL,
    updated_at             TEXT NOT NULL
);

CREATE INDEX tasks_by_mission ON tasks (mission_id, created_at);
CREATE INDEX tasks_by_team ON tasks (team_id, workspace_id, created_at);
CREATE INDEX tasks_by_parent ON tasks (parent_task_id);

-- At most one in-flight planning task per mission; finished ones do not hold the slot.
CREATE UNIQUE INDEX tasks_active_planning_per_mission ON tasks (mission_id)
    WHERE mode = 'planning' AND status IN ('pending', 'assigned', 'in_progress');

CREATE TABLE workers (
    id                   TEXT PRIMARY KEY,
    task_id              TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
    workspace_id         TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    account_id           TEXT REFERENCES accounts(id) ON DELETE SET NULL,
    name                 TEXT NOT NULL,
    runner               TEXT NOT NULL,
    branch               TEXT,
    status               TEXT NOT NULL DEFAULT 'idle',
    current_action       TEXT,
    pr_url               TEXT,
    pr_number            INTEGER,
    merged_at            TEXT,
    pr_lifecycle_status  TEXT,
    error                TEXT,
    started_at           TEXT,
    completed_at         TEXT,
    created_at           TEXT NOT NULL,
    updated_at           TEXT NOT NULL
);

CREATE INDEX workers_by_task ON workers (task_id, started_at);
