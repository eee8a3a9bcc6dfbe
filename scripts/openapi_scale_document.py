"""Prints the OpenAPI 3.1 document of a FastAPI app with N operations, built in a loop, for
measuring convoy-openapi at scale: `python scripts/openapi_scale_document.py 1000 > big.json`.

Each operation has its own request and response models, path and query parameters and a tag,
so the document is as varied per operation as a real one.
"""
import json
import sys
from typing import List, Optional

from fastapi import FastAPI
from pydantic import BaseModel, create_model


def build(count: int) -> FastAPI:
    app = FastAPI(title="Scale", version="1.0.0")
    for index in range(count):
        item = create_model(
            f"Item{index}", id=(int, ...), name=(str, ...), note=(Optional[str], None), tags=(List[str], [])
        )
        new = create_model(f"NewItem{index}", name=(str, ...), size=(int, 0))
        group = f"group{index % 25}"

        def make(model, body_model):
            def endpoint(item_id: int, body: body_model, limit: int = 10, q: Optional[str] = None):
                return model(id=item_id, name=body.name)

            return endpoint

        app.add_api_route(
            f"/{group}/items{index}/{{item_id}}",
            make(item, new),
            methods=["POST"],
            response_model=item,
            operation_id=f"operation{index}",
            tags=[group],
            summary=f"Operation number {index}.",
        )
    return app


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    print(json.dumps(build(count).openapi()))
