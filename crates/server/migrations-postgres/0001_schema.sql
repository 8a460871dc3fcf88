-- The server's schema on Postgres: the tables, columns and indexes of the SQLite schema as
-- its 23 migrations leave it, with what differs for many writers at once.
--
-- - Columns keep SQLite's names and meanings: TEXT for text, JSON and times (so answers are
--   the same bytes), BIGINT for integers and 0/1 flags, DOUBLE PRECISION for REAL.
-- - Tables whose rows the server orders by insertion carry `rowid`, as SQLite gives every
--   table one, so the same statements order the same way.
-- - No row that every write updates: where SQLite moves `generation`, `teams.changes` and
--   `task_changes` in the writing transaction, every write here only appends to `changes`.
--   The sequencer gives those rows their positions and counts them into `teams.changes`,
--   away from the writers.
-- - buildd-core's two rules the triggers apply, `buildd_dependency_satisfied` and
--   `buildd_claim_stop`, are defined here as placeholders; the server replaces them at start
--   with the rules' tables as buildd-core computes them (src/db/postgres/rules.rs).

CREATE FUNCTION buildd_dependency_satisfied(status TEXT, has_open_pr BIGINT) RETURNS BIGINT
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT NULL::BIGINT $$;

CREATE FUNCTION buildd_claim_stop(status TEXT, is_held BIGINT) RETURNS BIGINT
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT NULL::BIGINT $$;

-- Three of SQLite's functions as the shared statements use them, so one statement serves
-- both databases: `json_each` over a JSON array (its elements as text, in a column named
-- `value`), `json_extract` of a `$.a.b` path (as text; an object or array as its JSON), and
-- `instr`.
CREATE FUNCTION json_each(doc TEXT) RETURNS TABLE (value TEXT)
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT jsonb_array_elements_text(doc::jsonb) $$;

CREATE FUNCTION json_extract(doc TEXT, path TEXT) RETURNS TEXT
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT doc::jsonb #>> string_to_array(substr(path, 3), '.') $$;

CREATE FUNCTION instr(haystack TEXT, needle TEXT) RETURNS BIGINT
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT strpos(haystack, needle)::bigint $$;

CREATE TABLE teams (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    created_at  TEXT NOT NULL,
    changes     BIGINT NOT NULL DEFAULT 0
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
    max_concurrent_tasks   BIGINT NOT NULL DEFAULT 3,
    git_config             TEXT NOT NULL DEFAULT '{}',
    config_status          TEXT NOT NULL DEFAULT 'unconfigured',
    last_migration_number  BIGINT NOT NULL DEFAULT 0,
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
    enabled               BIGINT NOT NULL DEFAULT 1,
    one_shot              BIGINT NOT NULL DEFAULT 0,
    next_run_at           TEXT,
    last_run_at           TEXT,
    last_task_id          TEXT,
    total_runs            BIGINT NOT NULL DEFAULT 0,
    consecutive_failures  BIGINT NOT NULL DEFAULT 0,
    last_error            TEXT,
    last_deferral_reason  TEXT,
    last_deferred_at      TEXT,
    created_at            TEXT NOT NULL,
    updated_at            TEXT NOT NULL,
    last_state_key        TEXT
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
    priority                    BIGINT NOT NULL DEFAULT 0,
    default_output_requirement  TEXT,
    default_backend             TEXT,
    schedule_id                 TEXT REFERENCES schedules(id) ON DELETE SET NULL,
    parent_mission_id           TEXT REFERENCES missions(id) ON DELETE SET NULL,
    depends_on_mission_id       TEXT REFERENCES missions(id) ON DELETE SET NULL,
    gate_condition              TEXT NOT NULL DEFAULT 'merged',
    dependency_met_at           TEXT,
    max_concurrent_tasks        BIGINT,
    last_task_started_at        TEXT,
    working_branch              TEXT,
    requires_review             BIGINT NOT NULL DEFAULT 0,
    merge_policy                TEXT,
    orchestration_mode          TEXT NOT NULL DEFAULT 'auto'
                                    CHECK (orchestration_mode IN ('auto', 'manual')),
    is_held                     BIGINT NOT NULL DEFAULT 0,
    start_at                    TEXT,
    goal_criteria               TEXT,
    created_at                  TEXT NOT NULL,
    updated_at                  TEXT NOT NULL,
    mode                        TEXT NOT NULL DEFAULT 'dispatch'
                                    CHECK (mode IN ('dispatch', 'interactive')),
    spend_micros                BIGINT NOT NULL DEFAULT 0
);

CREATE INDEX missions_by_team ON missions (team_id, workspace_id, status);

CREATE TABLE tasks (
    rowid                  BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
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
    priority               BIGINT NOT NULL DEFAULT 0,
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
    requires_review        BIGINT NOT NULL DEFAULT 0,
    start_at               TEXT,
    created_at             TEXT NOT NULL,
    updated_at             TEXT NOT NULL,
    latest_worker_id       TEXT,
    cost_micros            BIGINT NOT NULL DEFAULT 0,
    stopped_by             TEXT,
    stopped_at             TEXT,
    stop_reason            TEXT
);

CREATE INDEX tasks_by_mission ON tasks (mission_id, created_at);
CREATE INDEX tasks_by_team ON tasks (team_id, workspace_id, created_at);
CREATE INDEX tasks_by_parent ON tasks (parent_task_id);
CREATE INDEX tasks_pending_by_team ON tasks (team_id, status, priority, created_at);
CREATE INDEX tasks_by_mission_mode_status ON tasks (mission_id, mode, status, team_id);
CREATE INDEX tasks_by_lease ON tasks (expires_at)
    WHERE status IN ('assigned', 'in_progress') AND expires_at IS NOT NULL;
CREATE INDEX tasks_recent ON tasks (team_id, updated_at) WHERE task_class <> 'attempt';

-- At most one in-flight planning task per mission; finished ones do not hold the slot.
CREATE UNIQUE INDEX tasks_active_planning_per_mission ON tasks (mission_id)
    WHERE mode = 'planning' AND status IN ('pending', 'assigned', 'in_progress');

-- At most one live aggregation task per approved plan (`aggregation` is 1 or true, as
-- SQLite's json_extract reads both as 1).
CREATE UNIQUE INDEX tasks_one_aggregator_per_plan ON tasks (parent_task_id)
    WHERE (context::jsonb -> 'aggregation') IN ('1'::jsonb, 'true'::jsonb)
      AND status <> 'cancelled';

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
    pr_number            BIGINT,
    merged_at            TEXT,
    pr_lifecycle_status  TEXT,
    error                TEXT,
    started_at           TEXT,
    completed_at         TEXT,
    created_at           TEXT NOT NULL,
    updated_at           TEXT NOT NULL,
    instruction_history  TEXT NOT NULL DEFAULT '[]',
    milestones           TEXT,
    cost_micros          BIGINT NOT NULL DEFAULT 0,
    input_tokens         BIGINT NOT NULL DEFAULT 0,
    output_tokens        BIGINT NOT NULL DEFAULT 0,
    waiting_for          TEXT,
    turns                BIGINT NOT NULL DEFAULT 0,
    commit_count         BIGINT NOT NULL DEFAULT 0,
    files_changed        BIGINT NOT NULL DEFAULT 0,
    lines_added          BIGINT NOT NULL DEFAULT 0,
    lines_removed        BIGINT NOT NULL DEFAULT 0,
    terminal_reason      TEXT,
    milestones_reported  BIGINT NOT NULL DEFAULT 0
);

ALTER TABLE tasks ADD CONSTRAINT tasks_latest_worker_id_fkey
    FOREIGN KEY (latest_worker_id) REFERENCES workers(id) ON DELETE SET NULL;

CREATE INDEX workers_by_task ON workers (task_id, started_at);
CREATE INDEX workers_by_account ON workers (account_id, status);
CREATE INDEX workers_waiting ON workers (workspace_id) WHERE waiting_for IS NOT NULL;

CREATE TABLE checkins (
    rowid        BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
    id           TEXT PRIMARY KEY,
    mission_id   TEXT NOT NULL REFERENCES missions(id) ON DELETE CASCADE,
    at           TEXT NOT NULL,
    outcome      TEXT NOT NULL CHECK (outcome IN ('started', 'deferred')),
    reason       TEXT,
    text         TEXT NOT NULL,
    task_id      TEXT REFERENCES tasks(id) ON DELETE SET NULL
);

CREATE INDEX checkins_by_mission ON checkins (mission_id, at);

CREATE TABLE pull_requests (
    id                 TEXT PRIMARY KEY,
    team_id            TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    workspace_id       TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    task_id            TEXT REFERENCES tasks(id) ON DELETE SET NULL,
    mission_id         TEXT REFERENCES missions(id) ON DELETE SET NULL,
    number             BIGINT NOT NULL,
    url                TEXT,
    base_branch        TEXT,
    head_branch        TEXT,
    head_sha           TEXT,
    files              TEXT,
    files_state        TEXT NOT NULL DEFAULT 'missing' CHECK (files_state IN ('listed', 'missing', 'malformed')),
    state              TEXT NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'merged', 'closed')),
    merged_at          TEXT,
    merged_by          TEXT,
    created_at         TEXT NOT NULL,
    updated_at         TEXT NOT NULL,
    stall_notified_at  TEXT,
    title              TEXT,
    UNIQUE (workspace_id, number)
);

CREATE INDEX pull_requests_by_mission ON pull_requests (mission_id, number);

CREATE TABLE check_runs (
    rowid        BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
    id           TEXT PRIMARY KEY,
    pr_id        TEXT NOT NULL REFERENCES pull_requests(id) ON DELETE CASCADE,
    head_sha     TEXT NOT NULL,
    name         TEXT NOT NULL,
    status       TEXT NOT NULL CHECK (status IN ('queued', 'in_progress', 'completed')),
    conclusion   TEXT CHECK (conclusion IN ('success', 'failure', 'neutral', 'cancelled', 'timed_out', 'skipped', 'action_required')),
    created_at   TEXT NOT NULL,
    details_url  TEXT
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

CREATE TABLE mission_notes (
    rowid           BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
    id              TEXT PRIMARY KEY,
    team_id         TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    mission_id      TEXT REFERENCES missions(id) ON DELETE CASCADE,
    task_id         TEXT REFERENCES tasks(id) ON DELETE SET NULL,
    worker_id       TEXT REFERENCES workers(id) ON DELETE SET NULL,
    author_type     TEXT NOT NULL CHECK (author_type IN ('agent', 'user', 'system')),
    type            TEXT NOT NULL,
    title           TEXT NOT NULL,
    body            TEXT,
    reply_to        TEXT REFERENCES mission_notes(id) ON DELETE SET NULL,
    default_choice  TEXT,
    options         TEXT NOT NULL DEFAULT '[]',
    status          TEXT NOT NULL CHECK (status IN ('open', 'answered', 'dismissed')),
    created_at      TEXT NOT NULL
);

CREATE INDEX mission_notes_feed ON mission_notes (mission_id, created_at, id);

CREATE TABLE pr_reviews (
    rowid             BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
    id                TEXT PRIMARY KEY,
    pr_id             TEXT NOT NULL REFERENCES pull_requests(id) ON DELETE CASCADE,
    iteration         BIGINT NOT NULL,
    head_sha          TEXT,
    reviewer_task_id  TEXT REFERENCES tasks(id) ON DELETE SET NULL,
    verdict           TEXT CHECK (verdict IN ('approve', 'request-changes', 'escalate')),
    confidence        DOUBLE PRECISION,
    summary           TEXT,
    outcome           TEXT CHECK (outcome IN ('merged', 'awaiting_person', 'awaiting_ci', 'retry', 'escalated', 'stale')),
    reasons           TEXT NOT NULL DEFAULT '[]',
    created_at        TEXT NOT NULL,
    decided_at        TEXT
);

CREATE INDEX pr_reviews_by_pr ON pr_reviews (pr_id, created_at);
CREATE UNIQUE INDEX pr_reviews_by_task ON pr_reviews (reviewer_task_id)
    WHERE reviewer_task_id IS NOT NULL;
CREATE UNIQUE INDEX pr_reviews_one_per_head ON pr_reviews (pr_id, head_sha)
    WHERE outcome IS DISTINCT FROM 'stale';

-- Every task's dependencies, a row each; kept from `tasks.depends_on` by triggers.
CREATE TABLE task_dependencies (
    task_id    TEXT NOT NULL,
    depends_on TEXT NOT NULL,
    PRIMARY KEY (task_id, depends_on)
);
CREATE INDEX task_dependencies_by_dependency ON task_dependencies (depends_on, task_id);

-- The claim queue, as SQLite's migration 0019 has it: every pending task with whether its
-- dependencies are settled (`ready`) and what its mission says (`stopped`).
CREATE TABLE claim_queue (
    task_id      TEXT PRIMARY KEY,
    team_id      TEXT NOT NULL,
    workspace_id TEXT NOT NULL,
    mission_id   TEXT,
    priority     BIGINT NOT NULL,
    created_at   TEXT NOT NULL,
    start_at     TEXT,
    ready        BIGINT NOT NULL DEFAULT 0,
    stopped      BIGINT NOT NULL DEFAULT 0
);

CREATE TABLE claim_queue_deps (
    task_id    TEXT NOT NULL,
    depends_on TEXT NOT NULL,
    PRIMARY KEY (task_id, depends_on)
);
CREATE INDEX claim_queue_deps_by_dependency ON claim_queue_deps (depends_on, task_id);

CREATE INDEX claim_queue_claimable ON claim_queue (team_id, priority DESC, created_at)
    WHERE ready = 1 AND stopped = 0;
CREATE INDEX claim_queue_claimable_in_workspace
    ON claim_queue (team_id, workspace_id, priority DESC, created_at)
    WHERE ready = 1 AND stopped = 0;
CREATE INDEX claim_queue_by_team ON claim_queue (team_id, workspace_id, stopped, ready, start_at);
CREATE INDEX claim_queue_by_mission ON claim_queue (mission_id);

-- Whether a task lets the tasks that depend on it start.
CREATE VIEW task_settled AS
SELECT t.id, t.team_id, buildd_dependency_satisfied(t.status, (EXISTS (
           SELECT 1 FROM workers w WHERE w.task_id = t.id AND w.pr_url IS NOT NULL
             AND w.merged_at IS NULL
             AND COALESCE(w.pr_lifecycle_status, '') NOT IN ('merged', 'closed')))::int::bigint)
       = 1 AS settled
FROM tasks t;

-- Every write to what a page shows, appended by the writing transaction. The sequencer
-- (store/team_changes.rs) gives committed rows their `position`s, a step at a time, and
-- adds each team's rows to `teams.changes`; a row without one is a change not yet counted.
-- `mission_id`, `task_id` (and `moved_from`, the mission a task left) are set for writes to
-- a task or its workers: what a mission page rebuilt after a change reads again.
CREATE TABLE changes (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    team_id     TEXT NOT NULL,
    mission_id  TEXT,
    task_id     TEXT,
    moved_from  TEXT,
    position    BIGINT
);
CREATE INDEX changes_to_place ON changes (id) WHERE position IS NULL;
CREATE INDEX changes_by_mission ON changes (mission_id, position) WHERE mission_id IS NOT NULL;
CREATE INDEX changes_by_moved_from ON changes (moved_from, position) WHERE moved_from IS NOT NULL;

-- The sequencer's place: the last position given, and the position up to which rows were
-- pruned (a task list read before it is read again in full).
CREATE TABLE change_sequence (
    id        BIGINT PRIMARY KEY CHECK (id = 1),
    position  BIGINT NOT NULL,
    floor     BIGINT NOT NULL
);
INSERT INTO change_sequence (id, position, floor) VALUES (1, 0, 0);

-- Judges again the queued tasks whose dependencies include any of `deps`.
CREATE FUNCTION claim_queue_judge(deps TEXT[]) RETURNS void LANGUAGE sql AS $$
    UPDATE claim_queue q SET ready = (NOT EXISTS (
        SELECT 1 FROM claim_queue_deps e WHERE e.task_id = q.task_id
          AND NOT EXISTS (SELECT 1 FROM task_settled d WHERE d.id = e.depends_on
                            AND d.team_id = q.team_id AND d.settled)))::int
    WHERE q.task_id IN (SELECT task_id FROM claim_queue_deps WHERE depends_on = ANY (deps));
$$;

-- (Re)queues pending task `t` with its dependencies and judges it.
CREATE FUNCTION claim_queue_enqueue(t tasks) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM claim_queue WHERE task_id = t.id;
    DELETE FROM claim_queue_deps WHERE task_id = t.id;
    INSERT INTO claim_queue (task_id, team_id, workspace_id, mission_id, priority, created_at,
                             start_at, stopped)
    VALUES (t.id, t.team_id, t.workspace_id, t.mission_id, t.priority, t.created_at,
            t.start_at,
            COALESCE((SELECT buildd_claim_stop(m.status, m.is_held) FROM missions m
                      WHERE m.id = t.mission_id), 0));
    INSERT INTO claim_queue_deps (task_id, depends_on)
        SELECT DISTINCT t.id, d.value FROM jsonb_array_elements_text(t.depends_on::jsonb) d;
    UPDATE claim_queue q SET ready = (NOT EXISTS (
        SELECT 1 FROM claim_queue_deps e WHERE e.task_id = q.task_id
          AND NOT EXISTS (SELECT 1 FROM task_settled s WHERE s.id = e.depends_on
                            AND s.team_id = q.team_id AND s.settled)))::int
    WHERE q.task_id = t.id;
END $$;

-- What a write to a task does beside it: its dependencies' rows, its place in the claim
-- queue, the queued tasks that wait on it, its mission's spend, and the change log.
CREATE FUNCTION tasks_written() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        DELETE FROM task_dependencies WHERE task_id = OLD.id;
        DELETE FROM claim_queue WHERE task_id = OLD.id;
        DELETE FROM claim_queue_deps WHERE task_id = OLD.id;
        PERFORM claim_queue_judge(ARRAY[OLD.id]);
        INSERT INTO changes (team_id, mission_id, task_id)
            VALUES (OLD.team_id, OLD.mission_id, CASE WHEN OLD.mission_id IS NOT NULL THEN OLD.id END);
        RETURN NULL;
    END IF;

    IF TG_OP = 'INSERT' THEN
        IF NEW.depends_on <> '[]' THEN
            INSERT INTO task_dependencies (task_id, depends_on)
                SELECT DISTINCT NEW.id, value FROM jsonb_array_elements_text(NEW.depends_on::jsonb);
        END IF;
        IF NEW.status = 'pending' THEN
            PERFORM claim_queue_enqueue(NEW);
        END IF;
        PERFORM claim_queue_judge(ARRAY[NEW.id]);
        INSERT INTO changes (team_id, mission_id, task_id)
            VALUES (NEW.team_id, NEW.mission_id, CASE WHEN NEW.mission_id IS NOT NULL THEN NEW.id END);
        RETURN NULL;
    END IF;

    IF OLD.id IS DISTINCT FROM NEW.id OR OLD.depends_on IS DISTINCT FROM NEW.depends_on THEN
        DELETE FROM task_dependencies WHERE task_id = OLD.id;
        INSERT INTO task_dependencies (task_id, depends_on)
            SELECT DISTINCT NEW.id, value FROM jsonb_array_elements_text(NEW.depends_on::jsonb);
    END IF;
    IF OLD.status = 'pending' AND NEW.status IS DISTINCT FROM 'pending' THEN
        DELETE FROM claim_queue WHERE task_id = OLD.id;
        DELETE FROM claim_queue_deps WHERE task_id = OLD.id;
    ELSIF NEW.status = 'pending' AND (OLD.status IS DISTINCT FROM 'pending'
        OR OLD.depends_on IS DISTINCT FROM NEW.depends_on
        OR OLD.priority IS DISTINCT FROM NEW.priority
        OR OLD.created_at IS DISTINCT FROM NEW.created_at
        OR OLD.start_at IS DISTINCT FROM NEW.start_at
        OR OLD.mission_id IS DISTINCT FROM NEW.mission_id
        OR OLD.workspace_id IS DISTINCT FROM NEW.workspace_id
        OR OLD.team_id IS DISTINCT FROM NEW.team_id) THEN
        PERFORM claim_queue_enqueue(NEW);
    END IF;
    IF OLD.status IS DISTINCT FROM NEW.status THEN
        PERFORM claim_queue_judge(ARRAY[NEW.id]);
    END IF;
    -- A mission's spend moves by the task's difference; a task that moves to another
    -- mission takes its cost with it.
    IF OLD.mission_id IS DISTINCT FROM NEW.mission_id AND OLD.cost_micros <> 0 THEN
        UPDATE missions SET spend_micros = spend_micros - OLD.cost_micros WHERE id = OLD.mission_id;
        UPDATE missions SET spend_micros = spend_micros + OLD.cost_micros WHERE id = NEW.mission_id;
    END IF;
    IF NEW.cost_micros <> OLD.cost_micros AND NEW.mission_id IS NOT NULL THEN
        UPDATE missions SET spend_micros = spend_micros + NEW.cost_micros - OLD.cost_micros
        WHERE id = NEW.mission_id;
    END IF;
    INSERT INTO changes (team_id, mission_id, task_id, moved_from)
        VALUES (NEW.team_id, NEW.mission_id,
                CASE WHEN NEW.mission_id IS NOT NULL OR OLD.mission_id IS NOT NULL THEN NEW.id END,
                CASE WHEN OLD.mission_id IS DISTINCT FROM NEW.mission_id THEN OLD.mission_id END);
    RETURN NULL;
END $$;

CREATE TRIGGER tasks_written AFTER INSERT OR UPDATE OR DELETE ON tasks
    FOR EACH ROW EXECUTE FUNCTION tasks_written();

-- What a write to a worker does beside it: its task's current worker and cost, the queued
-- tasks that wait on its task's PR, and the change log.
CREATE FUNCTION workers_written() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    w workers;
    team TEXT;
    mission TEXT;
BEGIN
    IF TG_OP = 'DELETE' THEN w := OLD; ELSE w := NEW; END IF;
    IF TG_OP = 'INSERT' THEN
        UPDATE tasks SET latest_worker_id = NEW.id WHERE id = NEW.task_id;
        IF NEW.cost_micros <> 0 THEN
            UPDATE tasks SET cost_micros =
                (SELECT COALESCE(SUM(cost_micros), 0) FROM workers WHERE task_id = NEW.task_id)
            WHERE id = NEW.task_id;
        END IF;
        IF NEW.pr_url IS NOT NULL THEN
            PERFORM claim_queue_judge(ARRAY[NEW.task_id]);
        END IF;
    ELSIF TG_OP = 'UPDATE' THEN
        IF NEW.cost_micros <> OLD.cost_micros OR NEW.task_id <> OLD.task_id THEN
            UPDATE tasks SET cost_micros =
                (SELECT COALESCE(SUM(x.cost_micros), 0) FROM workers x WHERE x.task_id = tasks.id)
            WHERE id IN (NEW.task_id, OLD.task_id);
        END IF;
        IF OLD.pr_url IS DISTINCT FROM NEW.pr_url OR OLD.merged_at IS DISTINCT FROM NEW.merged_at
            OR OLD.pr_lifecycle_status IS DISTINCT FROM NEW.pr_lifecycle_status
            OR OLD.task_id IS DISTINCT FROM NEW.task_id THEN
            PERFORM claim_queue_judge(ARRAY[NEW.task_id, OLD.task_id]);
        END IF;
    ELSIF OLD.pr_url IS NOT NULL THEN
        PERFORM claim_queue_judge(ARRAY[OLD.task_id]);
    END IF;
    SELECT team_id INTO team FROM workspaces WHERE id = w.workspace_id;
    SELECT mission_id INTO mission FROM tasks WHERE id = w.task_id;
    IF team IS NOT NULL THEN
        INSERT INTO changes (team_id, mission_id, task_id)
            VALUES (team, mission, CASE WHEN mission IS NOT NULL THEN w.task_id END);
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER workers_written AFTER INSERT OR UPDATE OR DELETE ON workers
    FOR EACH ROW EXECUTE FUNCTION workers_written();

-- A mission paused, held, archived, out of budget, or going again: its queued tasks
-- follow; a mission deleted leaves its queued tasks without one.
CREATE FUNCTION missions_written() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        UPDATE claim_queue SET mission_id = NULL, stopped = 0 WHERE mission_id = OLD.id;
        INSERT INTO changes (team_id) VALUES (OLD.team_id);
        RETURN NULL;
    END IF;
    IF TG_OP = 'UPDATE' AND buildd_claim_stop(OLD.status, OLD.is_held)
            IS DISTINCT FROM buildd_claim_stop(NEW.status, NEW.is_held) THEN
        UPDATE claim_queue SET stopped = buildd_claim_stop(NEW.status, NEW.is_held)
        WHERE mission_id = NEW.id;
    END IF;
    INSERT INTO changes (team_id) VALUES (NEW.team_id);
    RETURN NULL;
END $$;

CREATE TRIGGER missions_written AFTER INSERT OR UPDATE OR DELETE ON missions
    FOR EACH ROW EXECUTE FUNCTION missions_written();

-- A write to a table whose rows carry their team.
CREATE FUNCTION team_row_written() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        INSERT INTO changes (team_id) VALUES (OLD.team_id);
    ELSE
        INSERT INTO changes (team_id) VALUES (NEW.team_id);
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER schedules_written AFTER INSERT OR UPDATE OR DELETE ON schedules
    FOR EACH ROW EXECUTE FUNCTION team_row_written();
CREATE TRIGGER workspaces_written AFTER INSERT OR UPDATE OR DELETE ON workspaces
    FOR EACH ROW EXECUTE FUNCTION team_row_written();
CREATE TRIGGER pull_requests_written AFTER INSERT OR UPDATE OR DELETE ON pull_requests
    FOR EACH ROW EXECUTE FUNCTION team_row_written();
CREATE TRIGGER mission_notes_written AFTER INSERT OR UPDATE OR DELETE ON mission_notes
    FOR EACH ROW EXECUTE FUNCTION team_row_written();

-- A write to a mission's check-ins.
CREATE FUNCTION checkins_written() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    mission TEXT;
BEGIN
    IF TG_OP = 'DELETE' THEN mission := OLD.mission_id; ELSE mission := NEW.mission_id; END IF;
    INSERT INTO changes (team_id) SELECT team_id FROM missions WHERE id = mission;
    RETURN NULL;
END $$;

CREATE TRIGGER checkins_written AFTER INSERT OR UPDATE OR DELETE ON checkins
    FOR EACH ROW EXECUTE FUNCTION checkins_written();

-- A write to a PR's check runs or reviews.
CREATE FUNCTION pr_rows_written() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    pr TEXT;
BEGIN
    IF TG_OP = 'DELETE' THEN pr := OLD.pr_id; ELSE pr := NEW.pr_id; END IF;
    INSERT INTO changes (team_id) SELECT team_id FROM pull_requests WHERE id = pr;
    RETURN NULL;
END $$;

CREATE TRIGGER check_runs_written AFTER INSERT OR UPDATE OR DELETE ON check_runs
    FOR EACH ROW EXECUTE FUNCTION pr_rows_written();
CREATE TRIGGER pr_reviews_written AFTER INSERT OR UPDATE OR DELETE ON pr_reviews
    FOR EACH ROW EXECUTE FUNCTION pr_rows_written();
