-- Codes are matched whatever their case (api-v1-decisions, 2026-11-25: people type codes from
-- paper). Lookups compare lower(code) = lower($1) (store/sql.ts sameCodeSql); these indexes serve
-- them. Codes keep the case they were issued with.
--
-- A ticket code is unique whatever its case: POST /tickets refuses a code that differs from an
-- existing one only by case (409 ticket_code_taken), and this index makes that hold under
-- concurrent writes too. A store that already holds two codes differing only by case (issued
-- before this rule) keeps them: the index is then a plain one, and a lookup prefers the exact match.

do $$
begin
  if exists (select 1 from tickets group by lower(code) having count(*) > 1) then
    create index tickets_code_lower on tickets (lower(code));
  else
    create unique index tickets_code_lower on tickets (lower(code));
  end if;
end
$$;

create index wristbands_nfc_lower on wristbands (lower(nfc));
create index wristbands_uhf_lower on wristbands (lower(uhf));
