-- rebuild: select live_recompute_aggregates();
-- Keeps the live aggregates exact after every statement on m_sales: an insert, an update (a
-- re-sent record, a status change) or a delete (a day re-walk, an event reset) subtracts the old
-- rows' contributions and adds the new ones, in the same transaction as the mirror write.
create or replace function live_sales_changed() returns trigger language plpgsql as $$
begin
  if TG_OP in ('UPDATE', 'DELETE') then
    perform live_apply_sales(array(select row(o.*)::m_sales from old_rows o), -1);
  end if;
  if TG_OP in ('INSERT', 'UPDATE') then
    perform live_apply_sales(array(select row(n.*)::m_sales from new_rows n), 1);
  end if;
  return null;
end $$;

create or replace trigger live_sales_ins after insert on m_sales referencing new table as new_rows
  for each statement execute function live_sales_changed();
create or replace trigger live_sales_upd after update on m_sales referencing old table as old_rows new table as new_rows
  for each statement execute function live_sales_changed();
create or replace trigger live_sales_del after delete on m_sales referencing old table as old_rows
  for each statement execute function live_sales_changed();
