"""The documents `qrs import` reads (Markdown, plain text, HTML, Word, PDF), each into one intermediate document."""
