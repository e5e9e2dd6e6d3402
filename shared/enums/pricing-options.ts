export const ClientPricingOptionStatus = {
  inactive: 0,
  active: 1,
  notActivated: 2,
} as const;
export type ClientPricingOptionStatus =
  (typeof ClientPricingOptionStatus)[keyof typeof ClientPricingOptionStatus];

/** When a pass's validity period starts to run; "always" means it never expires. */
export const PricingOptionExpirationType = {
  saleDate: 0,
  firstVisit: 1,
  always: 2,
  calendarMonth: 3,
  specificDate: 4,
} as const;
export type PricingOptionExpirationType =
  (typeof PricingOptionExpirationType)[keyof typeof PricingOptionExpirationType];

/** When a client contract starts billing. */
export const ContractActivationType = {
  saleDate: 0,
  firstDayOfMonth: 1,
} as const;
export type ContractActivationType = (typeof ContractActivationType)[keyof typeof ContractActivationType];
