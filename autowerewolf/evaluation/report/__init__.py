"""The tournament report: metrics, tables, figures, files and definitions."""
