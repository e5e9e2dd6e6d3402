export const ClientCustomFieldType = {
  text: 0,
  numeric: 1,
  checkbox: 2,
  customSelect: 3,
  locationSelect: 4,
  memberSelect: 5,
  customMultiSelect: 6,
} as const;
export type ClientCustomFieldType = (typeof ClientCustomFieldType)[keyof typeof ClientCustomFieldType];

/** Private notes are for staff only; public ones the client can see. */
export const ClientNoteType = {
  private: 'private',
  public: 'public',
} as const;
export type ClientNoteType = (typeof ClientNoteType)[keyof typeof ClientNoteType];

/** Whether a tag is put on clients or on members (staff). */
export const TagType = {
  client: 0,
  member: 1,
} as const;
export type TagType = (typeof TagType)[keyof typeof TagType];
