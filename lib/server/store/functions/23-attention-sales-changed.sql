-- rebuild: select attention_recompute();
-- Keeps the device tables exact after every statement on m_sales (old rows out, new rows in).
create or replace function attention_sales_changed() returns trigger language plpgsql as $$
begin
  if TG_OP in ('UPDATE', 'DELETE') then
    perform attention_apply(attention_of_sales(array(select row(o.*)::m_sales from old_rows o)), -1);
  end if;
  if TG_OP in ('INSERT', 'UPDATE') then
    perform attention_apply(attention_of_sales(array(select row(n.*)::m_sales from new_rows n)), 1);
  end if;
  return null;
end $$;

create or replace trigger attention_sales_ins after insert on m_sales referencing new table as new_rows
  for each statement execute function attention_sales_changed();
create or replace trigger attention_sales_upd after update on m_sales referencing old table as old_rows new table as new_rows
  for each statement execute function attention_sales_changed();
create or replace trigger attention_sales_del after delete on m_sales referencing old table as old_rows
  for each statement execute function attention_sales_changed();
