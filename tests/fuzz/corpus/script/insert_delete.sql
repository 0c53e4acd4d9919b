\set id random(1, 1000000000000000)
begin;
insert into test1 select i from generate_series(:id::int8, :id::int8 + 1000) as i;
end;
