-- The gates' aggregates rebuilt from the whole mirror (the rebuild of the files above, and what
-- tests compare the triggers' work with), in batches of 50,000 scans by id. The rules' queue is not
-- refilled: a rebuild finds no new records.
create or replace function gates_recompute() returns void language plpgsql as $$
declare
  after_id text := '';
  scans m_scans[];
begin
  delete from g_entries_5min;
  delete from g_denied;
  delete from g_first_entries;
  delete from g_zone_day;
  loop
    scans := array(select s from m_scans s where s.id > after_id order by s.id limit 50000);
    exit when cardinality(scans) = 0;
    perform gates_apply_scans(scans, 1, false);
    after_id := (scans[cardinality(scans)]).id;
  end loop;
end $$;
