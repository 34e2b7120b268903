"""What a survey's published responses say: the published snapshot, figures, results documents
kept per version, cells of direct answers and results by group, regression and differences, and
their renderings (CSV, codebook, text tables, SVG charts)."""
