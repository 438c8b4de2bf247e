import { v7 as uuidv7, validate as uuidValidate } from 'uuid';

export type IdGenerator = () => string;

/** Time-ordered ids keep primary-key indexes append-mostly on both databases. */
export const newId: IdGenerator = () => uuidv7();

export const isUuid = (value: string): boolean => uuidValidate(value);
