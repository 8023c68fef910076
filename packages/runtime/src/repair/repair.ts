/** The kinds of safe repair toolwright applies to a model's arguments. */
export type RepairKind =
  | "json_repaired"
  | "empty_arguments"
  | "json_string_decoded"
  | "string_to_number"
  | "string_to_boolean"
  | "null_dropped";

/**
 * One repair made to a call's arguments before they validated, kept so a trace can
 * show exactly what the model sent and what ran.
 */
export interface Repair {
  readonly kind: RepairKind;
  /** JSON Pointer of the repaired value; `""` for the whole arguments. */
  readonly path: string;
  readonly detail?: string;
}
