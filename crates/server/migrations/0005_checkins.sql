-- Each check-in of a mission: it started the organizer, or deferred and recorded why.
CREATE TABLE checkins (
    id           TEXT PRIMARY KEY,
    mission_id   TEXT NOT NULL REFERENCES missions(id) ON DELETE CASCADE,
    at           TEXT NOT NULL,
    outcome      TEXT NOT NULL CHECK (outcome IN ('started', 'deferred')),
    reason       TEXT,
    text         TEXT NOT NULL,
    task_id      TEXT REFERENCES tasks(id) ON DELETE SET NULL
);

CREATE INDEX checkins_by_mission ON checkins (mission_id, at);

-- The mission's state (buildd-core's state_key) when a check-in last ran the organizer or
-- found nothing changed.
ALTER TABLE schedules ADD COLUMN last_state_key TEXT;

CREATE TRIGGER checkins_gen_i AFTER INSERT ON checkins BEGIN UPDATE generation SET value = value + 1; END;
