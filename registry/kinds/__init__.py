"""The record kinds: the pydantic record model, the JSON Schemas generated from it, and a model's geometry."""
