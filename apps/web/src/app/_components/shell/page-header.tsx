export function PageHeader({ title, description, wide }: { title: string; description?: string; wide?: boolean }) {
  return (
    <div className={`mx-auto w-full px-6 pb-6 pt-8 ${wide ? "max-w-5xl" : "max-w-3xl"}`}>
      <h1 className="text-xl font-semibold tracking-tight">{title}</h1>
      {description && <p className="mt-1 text-[14px] leading-relaxed text-muted-foreground">{description}</p>}
    </div>
  );
}
