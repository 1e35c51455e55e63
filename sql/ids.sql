-- factstore identifiers: the rules that name a row's company, shared by the store and the FSDS reader.

-- An SEC company's entity_id: its CIK in ten digits, zeros first (loaders.batch.sec_entity_id is its Python twin).
CREATE OR REPLACE MACRO sec_entity_id(cik) AS lpad(cik::VARCHAR, 10, '0');
