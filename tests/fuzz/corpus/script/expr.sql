\set a greatest(1, -2, 3) * least(4, 5) % mod(7, 3)
\set b (:a + 9223372036854775807) / 0
SELECT :a, :b, $$x;y$$, E'\\'';' /* ; */ ;
