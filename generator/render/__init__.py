"""Renderers: model -> text, markdown, JSON, SVG, HTML, PDF. Renderers never roll dice."""
