-- The mission feed: notes and questions from agents and people.
CREATE TABLE mission_notes (
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

CREATE TRIGGER mission_notes_gen_i AFTER INSERT ON mission_notes BEGIN UPDATE generation SET value = value + 1; END;
CREATE TRIGGER mission_notes_gen_u AFTER UPDATE ON mission_notes BEGIN UPDATE generation SET value = value + 1; END;
