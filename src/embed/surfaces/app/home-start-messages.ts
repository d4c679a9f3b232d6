/**
 * The home's starting points (a copy of a published dashboard, a template), in every shipped
 * locale; app-messages.ts spreads them into the app's catalogue.
 */

export const homeStartEn = {
  startTitle: "Start from",
  startDemo: "A published dashboard",
  startDemoHint: "A copy in your space: its charts and their reports, yours to change.",
  startDemoPick: "Dashboard",
  startCopy: "Copy to my space",
  startTemplate: "A template",
  startTemplateHint: "A row of KPIs, a trend by month and a breakdown, built from one view of your data.",
  startTemplateView: "Data",
  startCreate: "Create dashboard",
  startWorking: "Creating…",
  startTemplateName: "{view} overview",
  startBy: "{measure} by {dimension}",
  startCreated: "“{name}” is in your space.",
  startFailed: "Could not create it: {error}",
};
export type HomeStartCatalog = typeof homeStartEn;

export const homeStartDe: HomeStartCatalog = {
  startTitle: "Beginnen mit",
  startDemo: "Einem veröffentlichten Dashboard",
  startDemoHint: "Eine Kopie in Ihrem Bereich: seine Diagramme und deren Berichte, von Ihnen änderbar.",
  startDemoPick: "Dashboard",
  startCopy: "In meinen Bereich kopieren",
  startTemplate: "Einer Vorlage",
  startTemplateHint: "Eine Reihe KPIs, ein Monatsverlauf und eine Aufschlüsselung aus einer Sicht Ihrer Daten.",
  startTemplateView: "Daten",
  startCreate: "Dashboard erstellen",
  startWorking: "Wird erstellt…",
  startTemplateName: "{view} – Überblick",
  startBy: "{measure} nach {dimension}",
  startCreated: "„{name}“ ist in Ihrem Bereich.",
  startFailed: "Konnte nicht erstellt werden: {error}",
};

export const homeStartEs: HomeStartCatalog = {
  startTitle: "Empezar desde",
  startDemo: "Un panel publicado",
  startDemoHint: "Una copia en su espacio, con sus gráficos y sus informes, para cambiarla a su gusto.",
  startDemoPick: "Panel",
  startCopy: "Copiar a mi espacio",
  startTemplate: "Una plantilla",
  startTemplateHint: "Una fila de KPI, una tendencia por mes y un desglose, a partir de una vista de sus datos.",
  startTemplateView: "Datos",
  startCreate: "Crear panel",
  startWorking: "Creando…",
  startTemplateName: "Resumen de {view}",
  startBy: "{measure} por {dimension}",
  startCreated: "«{name}» está en su espacio.",
  startFailed: "No se pudo crear: {error}",
};

export const homeStartFr: HomeStartCatalog = {
  startTitle: "Commencer à partir de",
  startDemo: "Un tableau de bord publié",
  startDemoHint: "Une copie dans votre espace : ses graphiques et leurs rapports, à modifier à votre guise.",
  startDemoPick: "Tableau de bord",
  startCopy: "Copier dans mon espace",
  startTemplate: "Un modèle",
  startTemplateHint: "Une rangée d’indicateurs, une tendance par mois et une ventilation, à partir d’une vue de vos données.",
  startTemplateView: "Données",
  startCreate: "Créer le tableau de bord",
  startWorking: "Création…",
  startTemplateName: "Vue d’ensemble {view}",
  startBy: "{measure} par {dimension}",
  startCreated: "« {name} » est dans votre espace.",
  startFailed: "Création impossible : {error}",
};

export const homeStartIt: HomeStartCatalog = {
  startTitle: "Inizia da",
  startDemo: "Una dashboard pubblicata",
  startDemoHint: "Una copia nel tuo spazio: i suoi grafici e i loro report, da modificare a piacere.",
  startDemoPick: "Dashboard",
  startCopy: "Copia nel mio spazio",
  startTemplate: "Un modello",
  startTemplateHint: "Una riga di KPI, un andamento mensile e una ripartizione, da una vista dei tuoi dati.",
  startTemplateView: "Dati",
  startCreate: "Crea dashboard",
  startWorking: "Creazione…",
  startTemplateName: "Panoramica {view}",
  startBy: "{measure} per {dimension}",
  startCreated: "«{name}» è nel tuo spazio.",
  startFailed: "Impossibile crearla: {error}",
};

export const homeStartJa: HomeStartCatalog = {
  startTitle: "ここから始める",
  startDemo: "公開済みダッシュボード",
  startDemoHint: "自分のスペースにコピーします。グラフとそのレポートを自由に変更できます。",
  startDemoPick: "ダッシュボード",
  startCopy: "自分のスペースにコピー",
  startTemplate: "テンプレート",
  startTemplateHint: "データの1つのビューから、KPIの行、月別の推移、内訳を作成します。",
  startTemplateView: "データ",
  startCreate: "ダッシュボードを作成",
  startWorking: "作成中…",
  startTemplateName: "{view}の概要",
  startBy: "{dimension}別の{measure}",
  startCreated: "「{name}」をスペースに作成しました。",
  startFailed: "作成できませんでした: {error}",
};

export const homeStartNb: HomeStartCatalog = {
  startTitle: "Start fra",
  startDemo: "Et publisert dashbord",
  startDemoHint: "En kopi i ditt område: diagrammene og rapportene deres, som du kan endre.",
  startDemoPick: "Dashbord",
  startCopy: "Kopier til mitt område",
  startTemplate: "En mal",
  startTemplateHint: "En rad med KPI-er, en månedlig trend og en fordeling, bygd fra én visning av dataene dine.",
  startTemplateView: "Data",
  startCreate: "Lag dashbord",
  startWorking: "Lager…",
  startTemplateName: "{view} – oversikt",
  startBy: "{measure} etter {dimension}",
  startCreated: "«{name}» er i ditt område.",
  startFailed: "Kunne ikke lage det: {error}",
};

export const homeStartPtBR: HomeStartCatalog = {
  startTitle: "Começar de",
  startDemo: "Um painel publicado",
  startDemoHint: "Uma cópia no seu espaço: seus gráficos e relatórios, para você alterar.",
  startDemoPick: "Painel",
  startCopy: "Copiar para meu espaço",
  startTemplate: "Um modelo",
  startTemplateHint: "Uma linha de KPIs, uma tendência por mês e um detalhamento, a partir de uma visão dos seus dados.",
  startTemplateView: "Dados",
  startCreate: "Criar painel",
  startWorking: "Criando…",
  startTemplateName: "Visão geral de {view}",
  startBy: "{measure} por {dimension}",
  startCreated: "“{name}” está no seu espaço.",
  startFailed: "Não foi possível criar: {error}",
};

export const homeStartSv: HomeStartCatalog = {
  startTitle: "Börja från",
  startDemo: "En publicerad instrumentpanel",
  startDemoHint: "En kopia i ditt utrymme: diagrammen och deras rapporter, att ändra som du vill.",
  startDemoPick: "Instrumentpanel",
  startCopy: "Kopiera till mitt utrymme",
  startTemplate: "En mall",
  startTemplateHint: "En rad nyckeltal, en trend per månad och en uppdelning, byggda från en vy av dina data.",
  startTemplateView: "Data",
  startCreate: "Skapa instrumentpanel",
  startWorking: "Skapar…",
  startTemplateName: "{view} – översikt",
  startBy: "{measure} per {dimension}",
  startCreated: "”{name}” finns i ditt utrymme.",
  startFailed: "Kunde inte skapas: {error}",
};

export const homeStartVi: HomeStartCatalog = {
  startTitle: "Bắt đầu từ",
  startDemo: "Một bảng điều khiển đã xuất bản",
  startDemoHint: "Một bản sao trong không gian của bạn: các biểu đồ và báo cáo của chúng, tùy bạn thay đổi.",
  startDemoPick: "Bảng điều khiển",
  startCopy: "Sao chép vào không gian của tôi",
  startTemplate: "Một mẫu",
  startTemplateHint: "Một hàng KPI, xu hướng theo tháng và phần phân tích, dựng từ một chế độ xem dữ liệu của bạn.",
  startTemplateView: "Dữ liệu",
  startCreate: "Tạo bảng điều khiển",
  startWorking: "Đang tạo…",
  startTemplateName: "Tổng quan {view}",
  startBy: "{measure} theo {dimension}",
  startCreated: "“{name}” đã ở trong không gian của bạn.",
  startFailed: "Không tạo được: {error}",
};
