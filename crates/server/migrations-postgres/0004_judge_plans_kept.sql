-- The claim queue's judge, called by the triggers on every task and worker write, in
-- PL/pgSQL: a session keeps its statement's plan, where an SQL function's body is parsed
-- and planned again at every call.
CREATE OR REPLACE FUNCTION claim_queue_judge(deps TEXT[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    UPDATE claim_queue q SET ready = (NOT EXISTS (
        SELECT 1 FROM claim_queue_deps e WHERE e.task_id = q.task_id
          AND NOT EXISTS (SELECT 1 FROM task_settled d WHERE d.id = e.depends_on
                            AND d.team_id = q.team_id AND d.settled)))::int
    WHERE q.task_id IN (SELECT task_id FROM claim_queue_deps WHERE depends_on = ANY (deps));
END $$;
