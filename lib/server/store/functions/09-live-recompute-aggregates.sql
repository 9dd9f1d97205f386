-- rebuild: select live_recompute_aggregates();
-- The aggregates recomputed from the whole mirror: the rebuild of the files above, a repair after
-- an event's time zone changes, what tests compare the triggers' work with. In batches of 50,000
-- records by id, so that a million sales never sit in one array (an existing store's first start
-- with the function files rebuilds them all).
create or replace function live_recompute_aggregates() returns void language plpgsql as $$
declare
  after_id text;
  sales m_sales[];
  topups m_topups[];
  scans m_scans[];
begin
  delete from a_sales_hour;
  delete from a_sales_product;
  delete from a_sales_device;
  delete from a_sales_payment;
  delete from a_sales_tax;
  delete from a_sales_late;
  delete from a_topups_hour;
  delete from a_scans_hour;
  after_id := '';
  loop
    sales := array(select s from m_sales s where s.id > after_id order by s.id limit 50000);
    exit when cardinality(sales) = 0;
    perform live_apply_sales(sales, 1);
    after_id := (sales[cardinality(sales)]).id;
  end loop;
  after_id := '';
  loop
    topups := array(select t from m_topups t where t.id > after_id order by t.id limit 50000);
    exit when cardinality(topups) = 0;
    perform live_apply_topups(topups, 1);
    after_id := (topups[cardinality(topups)]).id;
  end loop;
  after_id := '';
  loop
    scans := array(select s from m_scans s where s.id > after_id order by s.id limit 50000);
    exit when cardinality(scans) = 0;
    perform live_apply_scans(scans, 1);
    after_id := (scans[cardinality(scans)]).id;
  end loop;
end $$;
