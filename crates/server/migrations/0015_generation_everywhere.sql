-- Every write to a table a polled read shows moves the generation, so a kept answer (and
-- its ETag) is never served after what it shows has changed: the PR list, a mission's
-- notes and runs are kept now too.
CREATE TRIGGER checkins_gen_u AFTER UPDATE ON checkins BEGIN UPDATE generation SET value = value + 1; END;
CREATE TRIGGER checkins_gen_d AFTER DELETE ON checkins BEGIN UPDATE generation SET value = value + 1; END;
CREATE TRIGGER pull_requests_gen_d AFTER DELETE ON pull_requests BEGIN UPDATE generation SET value = value + 1; END;
CREATE TRIGGER check_runs_gen_u AFTER UPDATE ON check_runs BEGIN UPDATE generation SET value = value + 1; END;
CREATE TRIGGER check_runs_gen_d AFTER DELETE ON check_runs BEGIN UPDATE generation SET value = value + 1; END;
CREATE TRIGGER mission_notes_gen_d AFTER DELETE ON mission_notes BEGIN UPDATE generation SET value = value + 1; END;
CREATE TRIGGER pr_reviews_gen_d AFTER DELETE ON pr_reviews BEGIN UPDATE generation SET value = value + 1; END;
