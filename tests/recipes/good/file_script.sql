-- pgbench script in a file
\set a random(1, 100)
\set b :a * 2 + 1
SELECT :a + :b AS s;
