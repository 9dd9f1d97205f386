-- rebuild: select attention_recompute();
-- How late a record must reach the upstream to count as late (attention_settings, written by the
-- dashboard at start from ATTENTION_LATE_S).
create or replace function attention_late_after() returns interval language sql stable as $$
  select coalesce((select late_after from attention_settings), interval '10 minutes')
$$;
