export { products } from "./ProductScreens";
