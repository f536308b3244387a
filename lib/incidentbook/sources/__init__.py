"""Where an incident's data comes from: the incident folder, or a metrics server."""
