-- rebuild: select now_recompute();
-- The right-now minute tables recomputed from the whole mirror: the rebuild of the files above (an
-- existing store's first start with them fills the tables), what tests compare the triggers' work
-- with. In batches of 50,000 records by id, as live_recompute_aggregates.
create or replace function now_recompute() returns void language plpgsql as $$
declare
  after_id text;
  sales m_sales[];
  topups m_topups[];
  scans m_scans[];
begin
  delete from a_now_sales_minute;
  delete from a_now_products_minute;
  delete from a_now_topups_minute;
  delete from a_now_scans_minute;
  after_id := '';
  loop
    sales := array(select s from m_sales s where s.id > after_id order by s.id limit 50000);
    exit when cardinality(sales) = 0;
    perform now_apply(sales, '{}', '{}', 1);
    after_id := (sales[cardinality(sales)]).id;
  end loop;
  after_id := '';
  loop
    topups := array(select t from m_topups t where t.id > after_id order by t.id limit 50000);
    exit when cardinality(topups) = 0;
    perform now_apply('{}', topups, '{}', 1);
    after_id := (topups[cardinality(topups)]).id;
  end loop;
  after_id := '';
  loop
    scans := array(select s from m_scans s where s.id > after_id order by s.id limit 50000);
    exit when cardinality(scans) = 0;
    perform now_apply('{}', '{}', scans, 1);
    after_id := (scans[cardinality(scans)]).id;
  end loop;
end $$;
