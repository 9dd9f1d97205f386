-- rebuild: select summary_recompute();
-- Everything recomputed from the records, in batches of sales so that a million of them never sit
-- in one array: the rebuild of the summary files (a store seeded before them; a repair).
create or replace function summary_recompute() returns void language plpgsql as $$
declare
  after_id text := '';
  batch sales[];
begin
  delete from summary_sales;
  delete from summary_payment;
  delete from summary_tax;
  delete from summary_product;
  delete from summary_flows;
  loop
    batch := array(select s from sales s where s.id > after_id order by s.id limit 50000);
    exit when cardinality(batch) = 0;
    perform summary_apply_sales(summary_sales_of(batch), 1);
    after_id := (batch[cardinality(batch)]).id;
  end loop;
  perform summary_apply_topups(summary_topups_of(array(select t from topups t)), 1);
end $$;
