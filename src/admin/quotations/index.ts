export { quotations } from "./QuotationScreens";
