-- New completed wristband sales go to the misuse rules' queue (double swipes, offline double spends).
create or replace function gates_sales_changed() returns trigger language plpgsql as $$
begin
  insert into g_misuse_queue (resource, id)
    select 'sales', n.id from new_rows n
    where n.status = 'completed' and n.payment_method = 'wristband' and n.type = 'cart'
  on conflict do nothing;
  return null;
end $$;

create or replace trigger gates_sales_ins after insert on m_sales referencing new table as new_rows
  for each statement execute function gates_sales_changed();
