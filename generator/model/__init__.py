"""The model: dataclasses that are the JSON documents, losslessly (to_dict/from_dict)."""
