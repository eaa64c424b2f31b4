-- Run once by the openlink/virtuoso-opensource-7 image on a fresh database (/opt/virtuoso-opensource/initdb.d).
-- Lets the compose loader write over plain HTTP (/sparql and /sparql-graph-crud): Virtuoso refuses
-- anonymous updates otherwise. Port 8890 is published on 127.0.0.1 only; drop this grant and use
-- the loader's --user/--password with /sparql-auth and /sparql-graph-crud-auth (Digest) if the
-- store is reachable by others.
GRANT SPARQL_UPDATE TO "SPARQL";
-- Marker the healthcheck asks for: the store is "healthy" only once this script has run.
SPARQL INSERT DATA { GRAPH <urn:sparql-jsonapi:init> { <urn:sparql-jsonapi:init> <urn:sparql-jsonapi:granted> true } };
