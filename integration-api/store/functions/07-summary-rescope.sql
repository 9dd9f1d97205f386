-- rebuild: select summary_recompute();
-- Moves the completed records of some wristbands from one scope to another (their current one is
-- read from the view, so call it after the change, with the scope they had before).
create or replace function summary_rescope(wristband_ids text[], old_type text, old_days text[]) returns void
language plpgsql as $$
declare
  moved_sales sales[] := array(select s from sales s where s.wristband_id = any(wristband_ids));
  moved_topups topups[] := array(select t from topups t where t.wristband_id = any(wristband_ids));
begin
  perform summary_apply_sales(summary_sales_of(moved_sales, old_type, old_days), -1);
  perform summary_apply_sales(summary_sales_of(moved_sales), 1);
  perform summary_apply_topups(summary_topups_of(moved_topups, old_type, old_days), -1);
  perform summary_apply_topups(summary_topups_of(moved_topups), 1);
end $$;
