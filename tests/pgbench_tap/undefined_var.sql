-- a variable nothing assigns: refused before any server starts
SELECT :nope;
