/**
 * `true` when `Listed` names every key of `Row`, else the keys it leaves out: assigning `true` to a
 * constant of this type fails to compile, naming them, once a column is added and not listed.
 */
export type EveryKeyListed<Row, Listed> = [Exclude<keyof Row, Listed>] extends [never] ? true : Exclude<keyof Row, Listed>;
