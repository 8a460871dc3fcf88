-- A counter that every change to the data a response is built from moves forward. A read
-- transaction sees the value of its own snapshot, so a cached response tagged with it is
-- exactly as fresh as a rebuilt one (and doubles as its ETag).
CREATE TABLE generation (
    id     INTEGER PRIMARY KEY CHECK (id = 1),
    value  INTEGER NOT NULL
);
INSERT INTO generation (id, value) VALUES (1, 1);

CREATE TRIGGER missions_gen_i AFTER INSERT ON missions BEGIN UPDATE generation SET value = value + 1; END;
CREATE TRIGGER missions_gen_u AFTER UPDATE ON missions BEGIN UPDATE generation SET value = value + 1; END;
CREATE TRIGGER missions_gen_d AFTER DELETE ON missions BEGIN UPDATE generation SET value = value + 1; END;
CREATE TRIGGER tasks_gen_i AFTER INSERT ON tasks BEGIN UPDATE generation SET value = value + 1; END;
CREATE TRIGGER tasks_gen_u AFTER UPDATE ON tasks BEGIN UPDATE generation SET value = value + 1; END;
CREATE TRIGGER tasks_gen_d AFTER DELETE ON tasks BEGIN UPDATE generation SET value = value + 1; END;
CREATE TRIGGER workers_gen_i AFTER INSERT ON workers BEGIN UPDATE generation SET value = value + 1; END;
CREATE TRIGGER workers_gen_u AFTER UPDATE ON workers BEGIN UPDATE generation SET value = value + 1; END;
CREATE TRIGGER workers_gen_d AFTER DELETE ON workers BEGIN UPDATE generation SET value = value + 1; END;
CREATE TRIGGER schedules_gen_i AFTER INSERT ON schedules BEGIN UPDATE generation SET value = value + 1; END;
CREATE TRIGGER schedules_gen_u AFTER UPDATE ON schedules BEGIN UPDATE generation SET value = value + 1; END;
CREATE TRIGGER schedules_gen_d AFTER DELETE ON schedules BEGIN UPDATE generation SET value = value + 1; END;
CREATE TRIGGER workspaces_gen_i AFTER INSERT ON workspaces BEGIN UPDATE generation SET value = value + 1; END;
CREATE TRIGGER workspaces_gen_u AFTER UPDATE ON workspaces BEGIN UPDATE generation SET value = value + 1; END;
CREATE TRIGGER workspaces_gen_d AFTER DELETE ON workspaces BEGIN UPDATE generation SET value = value + 1; END;
