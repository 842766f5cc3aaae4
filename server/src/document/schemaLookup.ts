type Schema = Record<string, unknown> & {
  description?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  $ref?: string;
  allOf?: { if?: { properties?: { kind?: { const?: string } } }; then?: Schema }[];
  $defs?: Record<string, Schema>;
};

function resolve(root: Schema, schema: Schema | undefined): Schema | undefined {
  let current = schema;
  for (let hops = 0; current?.$ref && hops < 10; hops++) {
    const name = current.$ref.replace('#/$defs/', '');
    current = root.$defs?.[name];
  }
  return current;
}

/**
 * The schema node describing the value at `path`. `kindAt` tells the kind
 * of an AIP 0.5 step at a path prefix, so the right per-kind schema is used.
 */
export function schemaAt(
  root: object,
  path: (string | number)[],
  kindAt: (prefix: (string | number)[]) => string | undefined = () => undefined,
): Schema | undefined {
  let schema = resolve(root as Schema, root as Schema);
  for (let i = 0; i < path.length && schema; i++) {
    const segment = path[i];
    schema = refineByKind(root as Schema, schema, kindAt(path.slice(0, i)));
    if (typeof segment === 'number') schema = resolve(root as Schema, schema.items);
    else {
      const property = schema.properties?.[segment];
      const additional = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
      schema = resolve(root as Schema, property ?? additional);
    }
  }
  return schema ? refineByKind(root as Schema, schema, kindAt(path)) : undefined;
}

/** Applies the `if kind == X then …` branch that matches the step's kind. */
function refineByKind(root: Schema, schema: Schema, kind: string | undefined): Schema {
  if (!kind || !schema.allOf) return schema;
  const branch = schema.allOf.find((entry) => entry.if?.properties?.kind?.const === kind);
  return resolve(root, branch?.then) ?? schema;
}

/** The keys a map at this schema node may hold, with their descriptions. */
export function keysOf(schema: Schema | undefined): { key: string; description?: string; type?: unknown }[] {
  return Object.entries(schema?.properties ?? {}).map(([key, value]) => ({
    key,
    description: value.description,
    type: value.type,
  }));
}
