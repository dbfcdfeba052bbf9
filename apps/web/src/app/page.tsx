import { HomeView } from "./_components/shell/home-view";

export default function HomePage() {
  return <HomeView />;
}
