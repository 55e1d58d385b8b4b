-- Trigram indexes back the case-insensitive substring `searchString` filter of the list endpoint.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
