\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
\if 1
SELECT 1;
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
\endif
