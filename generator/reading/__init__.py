"""Reading inputs: YAML sources with the place of every value, documents to import, players' rosters. What is read
here is plain data; the model (generator.model) makes it a sheet."""
