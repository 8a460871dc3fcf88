-- The agent-review tier's reviews of a PR: one per head commit reviewed, with the verdict and
-- what came of it; and when a waiting PR last told its mission it is stalled.
CREATE TABLE pr_reviews (
    id                TEXT PRIMARY KEY,
    pr_id             TEXT NOT NULL REFERENCES pull_requests(id) ON DELETE CASCADE,
    iteration         INTEGER NOT NULL,
    head_sha          TEXT,
    -- NULL when an escalation trigger sent the PR to a person before any reviewer ran.
    reviewer_task_id  TEXT REFERENCES tasks(id) ON DELETE SET NULL,
    verdict           TEXT CHECK (verdict IN ('approve', 'request-changes', 'escalate')),
    confidence        REAL,
    summary           TEXT,
    -- NULL while the reviewer works.
    outcome           TEXT CHECK (outcome IN ('merged', 'awaiting_person', 'awaiting_ci', 'retry', 'escalated', 'stale')),
    reasons           TEXT NOT NULL DEFAULT '[]',
    created_at        TEXT NOT NULL,
    decided_at        TEXT
);

CREATE INDEX pr_reviews_by_pr ON pr_reviews (pr_id, created_at);
CREATE UNIQUE INDEX pr_reviews_by_task ON pr_reviews (reviewer_task_id) WHERE reviewer_task_id IS NOT NULL;
-- One live review per head commit: concurrent reports cannot start two. A stale one (its
-- verdict came after the PR left agent review) leaves room for the next.
CREATE UNIQUE INDEX pr_reviews_one_per_head ON pr_reviews (pr_id, head_sha)
    WHERE outcome IS NOT 'stale';

ALTER TABLE pull_requests ADD COLUMN stall_notified_at TEXT;

CREATE TRIGGER pr_reviews_gen_i AFTER INSERT ON pr_reviews BEGIN UPDATE generation SET value = value + 1; END;
CREATE TRIGGER pr_reviews_gen_u AFTER UPDATE ON pr_reviews BEGIN UPDATE generation SET value = value + 1; END;
