-- rebuild: select summary_recompute();
-- Keeps the summary exact after every statement on sales: the old rows' contributions out, the
-- new ones in, in the same transaction as the write.
create or replace function summary_sales_changed() returns trigger language plpgsql as $$
begin
  if TG_OP in ('UPDATE', 'DELETE') then
    perform summary_apply_sales(summary_sales_of(array(select row(o.*)::sales from old_rows o)), -1);
  end if;
  if TG_OP in ('INSERT', 'UPDATE') then
    perform summary_apply_sales(summary_sales_of(array(select row(n.*)::sales from new_rows n)), 1);
  end if;
  return null;
end $$;

create or replace trigger summary_sales_ins after insert on sales referencing new table as new_rows
  for each statement execute function summary_sales_changed();
create or replace trigger summary_sales_upd after update on sales referencing old table as old_rows new table as new_rows
  for each statement execute function summary_sales_changed();
create or replace trigger summary_sales_del after delete on sales referencing old table as old_rows
  for each statement execute function summary_sales_changed();
